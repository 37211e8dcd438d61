/work/main/bench-results/perftest/.bin/rdmabench write_lat -d rxe0 -i 1 -x 1 -p 18683 --cpu auto --quiet
