/work/main/bench-results/perftest/.bin/rdmabench send_bw -d rxe0 -i 1 -x 1 -p 18693 --cpu auto --quiet
