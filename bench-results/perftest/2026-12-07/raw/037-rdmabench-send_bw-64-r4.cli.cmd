/tmp/h37c-sbs/.bin/rdmabench send_bw -d rxe0 -i 1 -x 1 -p 18637 -s 64 -n 4096 -t 128 -Q 16 -l 16 -I 0 --cpu auto --json /tmp/h37c-sbs/raw/037-rdmabench-send_bw-64-r4.json 192.0.2.1
