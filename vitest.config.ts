import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Integration tests start emulators and synthesize stacks: give them room on 2 shared cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
