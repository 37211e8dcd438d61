/tmp/h37c-sbs/.bin/rdmabench write_lat -d rxe0 -i 1 -x 1 -p 18613 --cpu auto --quiet
