/work/main/bench-results/perftest/issue39-layout/.bin/rdmabench read_bw -d rxe0 -i 1 -x 1 -p 18657 --cpu auto --quiet
