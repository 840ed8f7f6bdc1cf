package dev.warden.chaos.check;

import dev.warden.chaos.history.Op;
import dev.warden.chaos.history.Outcome;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a history of one object is linearizable against a sequential model: the
 * Wing–Gong search with Lowe's memoisation, as Knossos and Porcupine use it. The history is a
 * list of call and return events in time order; the search repeatedly picks a call whose op can
 * take effect now (the model accepts it in the current state), removes that op's call and return
 * from the list, and backtracks when it reaches a return whose op was never picked. A cache of
 * (ops linearized so far, model state) pairs already explored keeps the search from repeating itself.
 * An UNKNOWN op never returned: its return event is placed after every other event, so it may take
 * effect at any point after its call, or (taking effect last, observed by nobody) not at all.
 */
public final class Linearizability {
    /** What the search found. */
    public enum Verdict { LINEARIZABLE, NOT_LINEARIZABLE, TIMED_OUT }

    /**
     * @param linearizedAtMost the largest number of ops the search linearized in one attempt
     * @param stuckAt          when not linearizable: the ops that were waiting (called, not linearized)
     *                         when the deepest attempt reached a return it could not satisfy; the first
     *                         is the op whose return came
     */
    public record Result(Verdict verdict, int opCount, int linearizedAtMost, List<Op> stuckAt, long searchSteps) {
        public boolean ok() {
            return verdict == Verdict.LINEARIZABLE;
        }
    }

    private static final class Event {
        final Op op;
        final int index;
        final boolean call;
        final long timeNs;
        Event match;
        Event prev;
        Event next;

        Event(Op op, int index, boolean call, long timeNs) {
            this.op = op;
            this.index = index;
            this.call = call;
            this.timeNs = timeNs;
        }
    }

    private record Explored(BitSet linearized, Object state) {
    }

    private record Frame(Event call, Object stateBefore) {
    }

    private Linearizability() {
    }

    /**
     * @param ops      the ops of one object; a failed op that cannot have taken effect and said
     *                 nothing (say, a read that timed out) should be left out by the caller
     * @param budgetMs the search gives up after this long (TIMED_OUT), as the problem is NP-complete
     */
    public static <S> Result check(List<Op> ops, Model<S> model, long budgetMs) {
        Event head = buildEvents(ops);
        long deadlineNs = System.nanoTime() + budgetMs * 1_000_000L;
        BitSet linearized = new BitSet(ops.size());
        Set<Explored> cache = new HashSet<>();
        Deque<Frame> stack = new ArrayDeque<>();
        Object state = model.initial();
        int deepest = 0;
        List<Op> stuckAt = List.of();
        long steps = 0;
        Event entry = head.next;
        while (head.next != null) {
            if (++steps % 4096 == 0 && System.nanoTime() > deadlineNs) {
                return new Result(Verdict.TIMED_OUT, ops.size(), deepest, List.of(), steps);
            }
            if (entry.call) {
                @SuppressWarnings("unchecked")
                Optional<S> after = model.step((S) state, entry.op);
                boolean taken = false;
                if (after.isPresent()) {
                    BitSet next = (BitSet) linearized.clone();
                    next.set(entry.index);
                    if (cache.add(new Explored(next, after.get()))) {
                        stack.push(new Frame(entry, state));
                        state = after.get();
                        linearized = next;
                        lift(entry);
                        entry = head.next;
                        taken = true;
                    }
                }
                if (!taken) {
                    entry = entry.next;
                }
            } else {
                if (stack.size() >= deepest) {
                    deepest = stack.size();
                    stuckAt = waitingOps(head, entry);
                }
                if (stack.isEmpty()) {
                    return new Result(Verdict.NOT_LINEARIZABLE, ops.size(), deepest, stuckAt, steps);
                }
                Frame top = stack.pop();
                state = top.stateBefore();
                linearized = (BitSet) linearized.clone();
                linearized.clear(top.call().index);
                unlift(top.call());
                entry = top.call().next;
            }
        }
        return new Result(Verdict.LINEARIZABLE, ops.size(), ops.size(), List.of(), steps);
    }

    /** The op whose return blocked the search first, then the others called before that return and not yet linearized. */
    private static List<Op> waitingOps(Event head, Event blockingReturn) {
        List<Op> waiting = new ArrayList<>();
        waiting.add(blockingReturn.op);
        for (Event e = head.next; e != null && e != blockingReturn; e = e.next) {
            if (e.call && e.op != blockingReturn.op) {
                waiting.add(e.op);
            }
        }
        return waiting;
    }

    /** A sentinel head, then call and return events by time; at equal times calls come first (the ops overlap). */
    private static Event buildEvents(List<Op> ops) {
        List<Event> events = new ArrayList<>(2 * ops.size());
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            Event call = new Event(op, i, true, op.invokeNs());
            long returnNs = op.outcome() == Outcome.UNKNOWN ? Long.MAX_VALUE : op.completeNs();
            Event ret = new Event(op, i, false, returnNs);
            call.match = ret;
            ret.match = call;
            events.add(call);
            events.add(ret);
        }
        events.sort(Comparator.comparingLong((Event e) -> e.timeNs).thenComparing(e -> e.call ? 0 : 1)
                .thenComparingInt(e -> e.index));
        Event head = new Event(null, -1, false, Long.MIN_VALUE);
        Event last = head;
        for (Event e : events) {
            last.next = e;
            e.prev = last;
            last = e;
        }
        return head;
    }

    /** Takes a call and its return out of the list. */
    private static void lift(Event call) {
        call.prev.next = call.next;
        if (call.next != null) {
            call.next.prev = call.prev;
        }
        Event ret = call.match;
        ret.prev.next = ret.next;
        if (ret.next != null) {
            ret.next.prev = ret.prev;
        }
    }

    /** Puts them back where they were, in the reverse order of {@link #lift}. */
    private static void unlift(Event call) {
        Event ret = call.match;
        ret.prev.next = ret;
        if (ret.next != null) {
            ret.next.prev = ret;
        }
        call.prev.next = call;
        if (call.next != null) {
            call.next.prev = call;
        }
    }
}
