ib_write_lat -d rxe0 -i 1 -x 1 -p 18628 -s 2 -n 2000 -I 0 -F 192.0.2.1
