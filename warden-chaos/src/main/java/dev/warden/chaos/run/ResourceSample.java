package dev.warden.chaos.run;

/**
 * One member's resources at one moment of the run.
 *
 * @param heapAfterGcMb heap in use right after the member's latest GC (from its gc.log), -1 if none yet
 */
public record ResourceSample(long atNs, int member, long heapAfterGcMb, int threads, int fileDescriptors,
                             long rssMb, long dataDirMb) {
}
