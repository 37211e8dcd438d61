ib_read_bw -d rxe0 -i 1 -x 1 -p 18620 -s 65536 -n 5000 -t 128 -Q 64 -l 1 -F 192.0.2.1
