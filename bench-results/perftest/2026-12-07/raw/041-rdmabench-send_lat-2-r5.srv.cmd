/tmp/h37c-sbs/.bin/rdmabench send_lat -d rxe0 -i 1 -x 1 -p 18641 --cpu auto --quiet
