/tmp/h37c-sbs/.bin/rdmabench write_lat -d rxe0 -i 1 -x 1 -p 18603 -s 2 -n 4096 -I 0 --cpu auto --json /tmp/h37c-sbs/raw/003-rdmabench-write_lat-2-r1.json 192.0.2.1
