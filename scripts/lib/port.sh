# Sourced by the scripts that start servers: `free_port` prints a loopback port nothing is bound to,
# chosen below the kernel's ephemeral range (32768 and up on Linux), so no outgoing connection of
# a test, a client or the PostgreSQL pool can hold it by the time the server binds. It leaves the
# next two ports for scripts that start a second or third listener at port+1 and port+2.
free_port() {
  local port
  for _ in $(seq 1 200); do
    port=$((20000 + RANDOM % 12000))
    if python3 - "$port" <<'PY' 2>/dev/null; then
import socket, sys
base = int(sys.argv[1])
for p in (base, base + 1, base + 2):
    s = socket.socket()
    s.bind(("127.0.0.1", p))
    s.close()
PY
      echo "$port"
      return 0
    fi
  done
  echo "no free loopback port found in 20000-32000" >&2
  return 1
}
