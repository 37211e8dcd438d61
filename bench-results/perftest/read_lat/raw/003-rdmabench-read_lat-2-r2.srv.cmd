/work/main/bench-results/perftest/read_lat/.bin/rdmabench read_lat -d rxe0 -i 1 -x 1 -p 18603 --cpu auto --quiet
