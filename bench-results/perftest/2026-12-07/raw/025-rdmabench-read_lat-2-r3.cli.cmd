/tmp/h37c-sbs/.bin/rdmabench read_lat -d rxe0 -i 1 -x 1 -p 18625 -s 2 -n 4096 --cpu auto --json /tmp/h37c-sbs/raw/025-rdmabench-read_lat-2-r3.json 192.0.2.1
