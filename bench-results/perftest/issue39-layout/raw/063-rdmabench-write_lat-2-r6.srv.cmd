/work/main/bench-results/perftest/issue39-layout/.bin/rdmabench write_lat -d rxe0 -i 1 -x 1 -p 18663 --cpu auto --quiet
