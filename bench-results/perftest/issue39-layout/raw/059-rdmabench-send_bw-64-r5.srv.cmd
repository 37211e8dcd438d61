/work/main/bench-results/perftest/issue39-layout/.bin/rdmabench send_bw -d rxe0 -i 1 -x 1 -p 18659 --cpu auto --quiet
