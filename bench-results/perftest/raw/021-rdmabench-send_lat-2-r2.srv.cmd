/work/main/bench-results/perftest/.bin/rdmabench send_lat -d rxe0 -i 1 -x 1 -p 18621 --cpu auto --quiet
