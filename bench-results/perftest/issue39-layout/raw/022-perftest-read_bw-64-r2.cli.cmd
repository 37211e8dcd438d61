ib_read_bw -d rxe0 -i 1 -x 1 -p 18622 -s 64 -n 2000 -t 128 -Q 64 -l 1 -F 192.0.2.1
