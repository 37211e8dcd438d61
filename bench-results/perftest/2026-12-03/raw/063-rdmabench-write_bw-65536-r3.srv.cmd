/work/main/bench-results/perftest/2026-12-03/.bin/rdmabench write_bw -d rxe0 -i 1 -x 1 -p 18663 --cpu auto --quiet
