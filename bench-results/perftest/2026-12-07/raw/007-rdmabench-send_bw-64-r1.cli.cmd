/tmp/h37c-sbs/.bin/rdmabench send_bw -d rxe0 -i 1 -x 1 -p 18607 -s 64 -n 4096 -t 128 -Q 16 -l 16 -I 0 --cpu auto --json /tmp/h37c-sbs/raw/007-rdmabench-send_bw-64-r1.json 192.0.2.1
