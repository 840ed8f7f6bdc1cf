package dev.warden.server.quorum;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/** The apply thread's event queue: bounded room that other threads wait for, and parking its one consumer while empty. */
final class ApplyInbox<E> {
    /** Events in arrival order; only {@link #add} adds and only the consumer takes. */
    private final ConcurrentLinkedQueue<E> events = new ConcurrentLinkedQueue<>();
    /** Room left in the inbox: taken by a producer before it adds, given back as the consumer takes. */
    private final Semaphore room;
    /** The one thread that takes; it may add too, and must never wait on itself. */
    private final Thread consumer;
    /** Events the consumer queued to itself beyond the room left; consumer thread only. */
    private int overdrawn;
    /** Set while the consumer is parked or about to park; an event that must be seen unparks it. */
    private volatile boolean parked;

    ApplyInbox(int capacity, Thread consumer) {
        this.room = new Semaphore(capacity);
        this.consumer = consumer;
    }

    /** Events waiting for the consumer; any thread. */
    int size() {
        return events.size();
    }

    /**
     * Adds the event and, if {@code wake}, unparks the consumer should it be parked. The consumer
     * sets {@link #parked} before it looks at the queue a last time and the producer adds before it
     * reads the flag, so one of the two always sees the other: an event that wakes is never left
     * behind a parked consumer. An event that does not {@code holdRoom} is added even when full.
     */
    void add(E event, boolean holdsRoom, boolean wake) {
        if (!holdsRoom) {
            // takes no room: a member whose apply thread died must still close
        } else if (Thread.currentThread() == consumer) {
            if (!room.tryAcquire()) {
                overdrawn++;
            }
        } else if (!room.tryAcquire()) {
            // the inbox may be full of quiet events behind a parked consumer: wake it to take them
            LockSupport.unpark(consumer);
            room.acquireUninterruptibly();
        }
        events.add(event);
        if (wake && parked) {
            LockSupport.unpark(consumer);
        }
    }

    /** Takes every queued event into {@code batch}, parking first while there is none; consumer thread only. */
    void takeAll(List<E> batch, Predicate<E> holdsRoom) throws InterruptedException {
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("apply thread interrupted");
            }
            int taken = 0;
            for (E event; (event = events.poll()) != null; ) {
                batch.add(event);
                if (holdsRoom.test(event)) {
                    taken++;
                }
            }
            if (!batch.isEmpty()) {
                giveBackRoom(taken);
                return;
            }
            parked = true;
            if (events.isEmpty()) {
                LockSupport.park(this);
            }
            parked = false;
        }
    }

    /** The consumer took {@code taken} events that held room; what it overdrew is paid back first. */
    private void giveBackRoom(int taken) {
        int repaid = Math.min(overdrawn, taken);
        overdrawn -= repaid;
        if (taken > repaid) {
            room.release(taken - repaid);
        }
    }
}
