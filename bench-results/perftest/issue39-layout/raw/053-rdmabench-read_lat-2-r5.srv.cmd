/work/main/bench-results/perftest/issue39-layout/.bin/rdmabench read_lat -d rxe0 -i 1 -x 1 -p 18653 --cpu auto --quiet
