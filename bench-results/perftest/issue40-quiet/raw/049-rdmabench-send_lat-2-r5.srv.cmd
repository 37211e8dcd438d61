/work/main/bench-results/perftest/issue40-quiet/.bin/rdmabench send_lat -d rxe0 -i 1 -x 1 -p 18649 --cpu auto --quiet
