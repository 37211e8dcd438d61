/tmp/h37c-sbs/.bin/rdmabench read_lat -d rxe0 -i 1 -x 1 -p 18645 -s 2 -n 4096 --cpu auto --json /tmp/h37c-sbs/raw/045-rdmabench-read_lat-2-r5.json 192.0.2.1
