// Driver test, part 2 of a two-file program: a plain C++ main linked with the
// object of multi_kernels.hip by `ldsan-cc --emulate`.
#include <stdio.h>

extern "C" int run_saxpy(float a, const float *x, float *y, int n);

int main() {
  const int n = 1000;
  static float x[n], y[n];
  for (int i = 0; i < n; i++) { x[i] = (float)i; y[i] = 1; }
  int err = run_saxpy(2.0f, x, y, n);
  if (err) { fprintf(stderr, "run_saxpy failed: %d\n", err); return 1; }
  for (int i = 0; i < n; i++)
    if (y[i] != 1 + 2.0f * i) { fprintf(stderr, "y[%d] = %g\n", i, y[i]); return 1; }
  printf("multi: PASSED\n");
  return 0;
}
