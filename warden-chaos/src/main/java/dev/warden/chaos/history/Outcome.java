package dev.warden.chaos.history;

/** How an operation ended, as the client saw it. */
public enum Outcome {
    /** Acknowledged: it took effect, with the recorded result. */
    OK,
    /** Refused with a definite answer: it took no effect (or, for a CAS, saw another version). */
    FAIL,
    /** No answer (connection loss, timeout, session gone mid-request): it may or may not have taken effect. */
    UNKNOWN
}
