/work/wt-h40r/bench-results/perftest/issue40/.bin/rdmabench write_lat -d rxe0 -i 1 -x 1 -p 18603 --cpu auto --quiet
