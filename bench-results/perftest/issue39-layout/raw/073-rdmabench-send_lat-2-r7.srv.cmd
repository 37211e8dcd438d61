/work/main/bench-results/perftest/issue39-layout/.bin/rdmabench send_lat -d rxe0 -i 1 -x 1 -p 18673 --cpu auto --quiet
