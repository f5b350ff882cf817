#!/usr/bin/env python3
"""Time from process start to the interactive prompt, in a real pseudo-terminal: prompt-time.py NODE CLI REPO [RUNS]."""
import os, pty, select, sys, time, signal, json

node, cli, repo = sys.argv[1:4]
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
times = []
for _ in range(runs):
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp"), "TERM": "xterm-256color", "NO_COLOR": "1"}
        os.execve(node, [node, cli, "--repo", repo], env)
    seen = b""
    deadline = start + 20
    while time.perf_counter() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if fd in ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            seen += chunk
            if b"autopatch-j>" in seen:
                times.append((time.perf_counter() - start) * 1e6)
                break
    # Leave cleanly (Ctrl-D) so the next start finds a clean close; kill only if it hangs.
    try:
        os.write(fd, b"\x04")
    except OSError:
        pass
    end = time.perf_counter() + 10
    while time.perf_counter() < end:
        try:
            select.select([fd], [], [], 0.05)
            os.read(fd, 4096)
        except OSError:
            pass
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
print(json.dumps(times))
