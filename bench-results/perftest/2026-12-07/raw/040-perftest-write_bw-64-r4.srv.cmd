ib_write_bw -d rxe0 -i 1 -x 1 -p 18640 -s 64 -n 4096 -t 128 -Q 16 -l 16 -I 0 -F
