/* speexdsp's MDF echo canceller on whole files, offline (Benchmarks/room/aec_original_voice.py).
 *   aec_mdf MIC.raw REF.raw OUT.raw RATE FRAME_SAMPLES FILTER_SAMPLES [PASSES [RES]]
 * Raw mono int16 files at RATE; REF is what the loudspeaker played, at its output time (sample k of
 * REF left the speaker when sample k of MIC was recorded). No preprocessor: no noise suppression,
 * no gain control, no residual-echo suppression — only the adaptive filter's residual. PASSES > 1
 * runs the same files again with the filter as the previous pass left it and writes the last pass
 * only: a filter already converged on this room (a server's canceller keeps running between songs).
 * RES 1: speex's residual-echo suppressor after the filter (speex_preprocess with the echo state;
 * its noise suppression floor at 0 dB, no AGC, no dereverb): a per-bin gain, as ours is.
 * Build: gcc -O2 -o Benchmarks/out/aec_mdf Benchmarks/room/aec_mdf.c -lspeexdsp */
#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc < 7 || argc > 9) { fprintf(stderr, "usage: aec_mdf MIC REF OUT RATE FRAME FILTER [PASSES [RES]]\n"); return 2; }
    FILE *mic = fopen(argv[1], "rb"), *ref = fopen(argv[2], "rb"), *out = fopen(argv[3], "wb");
    if (!mic || !ref || !out) { perror("aec_mdf"); return 1; }
    int rate = atoi(argv[4]), frame = atoi(argv[5]), filter = atoi(argv[6]), passes = argc >= 8 ? atoi(argv[7]) : 1;
    int res = argc == 9 ? atoi(argv[8]) : 0;
    SpeexEchoState *st = speex_echo_state_init(frame, filter);
    speex_echo_ctl(st, SPEEX_ECHO_SET_SAMPLING_RATE, &rate);
    SpeexPreprocessState *pp = NULL;
    if (res) {
        int on = 1, off = 0, floor_db = 0;
        pp = speex_preprocess_state_init(frame, rate);
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_ECHO_STATE, st);
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_DENOISE, &on);  /* the gains are computed only with it on */
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, &floor_db);
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_AGC, &off);
        speex_preprocess_ctl(pp, SPEEX_PREPROCESS_SET_DEREVERB, &off);
    }
    spx_int16_t *m = calloc(frame, 2), *r = calloc(frame, 2), *e = calloc(frame, 2);
    size_t n;
    for (int pass = 1; pass <= passes; pass++) {
        rewind(mic); rewind(ref);
        while ((n = fread(m, 2, frame, mic)) > 0) {
            size_t k = fread(r, 2, frame, ref);
            for (size_t i = k; i < (size_t)frame; i++) r[i] = 0;
            for (size_t i = n; i < (size_t)frame; i++) m[i] = 0;
            speex_echo_cancellation(st, m, r, e);
            if (pp) speex_preprocess_run(pp, e);
            if (pass == passes) fwrite(e, 2, n, out);
        }
    }
    if (pp) speex_preprocess_state_destroy(pp);
    speex_echo_state_destroy(st);
    fclose(mic); fclose(ref); fclose(out);
    return 0;
}
