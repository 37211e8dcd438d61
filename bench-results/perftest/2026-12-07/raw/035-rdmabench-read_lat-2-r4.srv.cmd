/tmp/h37c-sbs/.bin/rdmabench read_lat -d rxe0 -i 1 -x 1 -p 18635 --cpu auto --quiet
