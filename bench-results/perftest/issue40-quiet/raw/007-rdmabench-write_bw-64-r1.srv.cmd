/work/main/bench-results/perftest/issue40-quiet/.bin/rdmabench write_bw -d rxe0 -i 1 -x 1 -p 18607 --cpu auto --quiet
