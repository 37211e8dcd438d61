ib_read_lat -d rxe0 -i 1 -x 1 -p 18618 -s 2 -n 2000 -F 192.0.2.1
