/tmp/h37c-sbs/.bin/rdmabench send_lat -d rxe0 -i 1 -x 1 -p 18631 -s 2 -n 4096 -I 0 --cpu auto --json /tmp/h37c-sbs/raw/031-rdmabench-send_lat-2-r4.json 192.0.2.1
