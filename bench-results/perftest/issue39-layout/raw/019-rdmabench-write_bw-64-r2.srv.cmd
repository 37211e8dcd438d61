/work/main/bench-results/perftest/issue39-layout/.bin/rdmabench write_bw -d rxe0 -i 1 -x 1 -p 18619 --cpu auto --quiet
