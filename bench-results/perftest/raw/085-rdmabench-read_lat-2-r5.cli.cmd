/work/main/bench-results/perftest/.bin/rdmabench read_lat -d rxe0 -i 1 -x 1 -p 18685 -s 2 -n 4096 --cpu auto --json /work/main/bench-results/perftest/raw/085-rdmabench-read_lat-2-r5.json 192.0.2.1
