ib_write_lat -d rxe0 -i 1 -x 1 -p 18644 -s 2 -n 4096 -I 0 -F
