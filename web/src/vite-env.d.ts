/// <reference types="vite/client" />

/** opus-recorder 8 ships no types; voice-capture.ts describes the part it uses. */
declare module 'opus-recorder';
