# Private headless PulseAudio for tests: source this file, then call
#   pa_test_start   (exports PULSE_RUNTIME_PATH / PULSE_SERVER for clients)
#   pa_test_stop
# Devices: sink "speaker" (the room's loudspeaker; record its .monitor),
# sink "mic_sink" + source "mic" (play a synthetic singer into mic_sink,
# the app records "mic"), stereo sink "mic2_sink" + source "mic2" for duets.
# See shared/guides/platform.md §4 for why the keepalives and suspend toggles are needed.

pa_test_start() {
  PA_DIR=$(mktemp -d /tmp/karaoke-pa.XXXXXX)
  mkdir -p "$PA_DIR/run" "$PA_DIR/state"
  export PULSE_RUNTIME_PATH=$PA_DIR/run PULSE_STATE_PATH=$PA_DIR/state
  export PULSE_SERVER=unix:$PA_DIR/run/native
  cat > "$PA_DIR/test.pa" <<'PA'
load-module module-native-protocol-unix auth-anonymous=1
load-module module-null-sink sink_name=speaker rate=48000 channels=2
load-module module-null-sink sink_name=mic_sink rate=48000 channels=1
load-module module-remap-source source_name=mic master=mic_sink.monitor
load-module module-null-sink sink_name=mic2_sink rate=48000 channels=2
load-module module-remap-source source_name=mic2 master=mic2_sink.monitor
set-default-sink speaker
set-default-source mic
PA
  # Real-time I/O threads and nice -11, as Debian's daemon.conf gives a desktop's PulseAudio: the
  # test room's sound server must not be starved by the browsers and phones a test runs beside it
  # (the guide's --realtime=no left its null sinks' threads at ordinary priority; the measured
  # gaps with 8 phones were the client's thread: docs/audio-engine.md). Where it is not
  # permitted PulseAudio says so in its log and goes on.
  pulseaudio -n -F "$PA_DIR/test.pa" --daemonize=no --exit-idle-time=-1 --disallow-exit \
    --realtime=yes --high-priority=yes --enable-memfd=no --log-target=file:"$PA_DIR/pulse.log" &
  PA_PID=$!
  local tries=0
  until pactl info >/dev/null 2>&1; do
    sleep 0.05; tries=$((tries + 1))
    if ((tries > 200)); then echo "pa_test_start: PulseAudio did not start" >&2; cat "$PA_DIR/pulse.log" >&2; return 1; fi
  done
  parecord --raw --latency-msec=10 -d speaker.monitor /dev/null & PA_K1=$!
  parecord --raw --latency-msec=10 -d mic /dev/null & PA_K2=$!
  parecord --raw --latency-msec=10 -d mic2 /dev/null & PA_K3=$!
  while [ "$(pactl list short source-outputs | wc -l)" -lt 3 ]; do sleep 0.02; done
  for s in speaker mic_sink mic2_sink; do pactl suspend-sink $s 1; pactl suspend-sink $s 0; done
  for s in mic mic2; do pactl suspend-source $s 1; pactl suspend-source $s 0; done
  export PA_PID PA_K1 PA_K2 PA_K3 PA_DIR
}

pa_test_stop() {
  [ -n "${PA_PID:-}" ] || return 0
  kill "$PA_K1" "$PA_K2" "$PA_K3" "$PA_PID" 2>/dev/null || true
  wait "$PA_PID" "$PA_K1" "$PA_K2" "$PA_K3" 2>/dev/null || true
  rm -rf "$PA_DIR"
  unset PA_PID PA_K1 PA_K2 PA_K3 PA_DIR PULSE_RUNTIME_PATH PULSE_STATE_PATH PULSE_SERVER
}
