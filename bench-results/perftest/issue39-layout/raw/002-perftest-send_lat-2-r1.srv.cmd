ib_send_lat -d rxe0 -i 1 -x 1 -p 18602 -s 2 -n 2000 -I 0 -F
