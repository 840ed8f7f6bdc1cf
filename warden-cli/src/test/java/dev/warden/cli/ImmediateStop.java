package dev.warden.cli;

/** Stops as soon as the command starts waiting, so a command under test returns at once. */
final class ImmediateStop implements StopSignal {
    private Runnable stop = () -> { };

    @Override
    public void onStop(Runnable stopAction) {
        this.stop = stopAction;
    }

    @Override
    public void await() {
        stop.run();
    }
}
