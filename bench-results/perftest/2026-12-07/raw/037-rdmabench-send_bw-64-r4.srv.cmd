/tmp/h37c-sbs/.bin/rdmabench send_bw -d rxe0 -i 1 -x 1 -p 18637 --cpu auto --quiet
