/tmp/h37c-sbs/.bin/rdmabench write_bw -d rxe0 -i 1 -x 1 -p 18639 --cpu auto --quiet
