package dev.warden.sim;

import dev.warden.consensus.ZabMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The scripted part of delivery: packets to park until released, one-shot interceptors that
 * run an action (a crash, say) just before a chosen packet arrives, and counts of what arrived.
 */
final class PacketScript {
    private record Interceptor(Predicate<SimNetwork.Packet> match, Function<Simulation, Simulation.Verdict> action) { }

    private final List<Interceptor> interceptors = new ArrayList<>();
    private final List<Predicate<SimNetwork.Packet>> holdRules = new ArrayList<>();
    private final List<SimNetwork.Packet> held = new ArrayList<>();
    private final Map<String, Integer> deliveredByType = new HashMap<>();

    void intercept(Predicate<SimNetwork.Packet> match, Function<Simulation, Simulation.Verdict> action) {
        interceptors.add(new Interceptor(match, action));
    }

    void hold(Predicate<SimNetwork.Packet> rule) {
        holdRules.add(rule);
    }

    /** Parks the packet if a hold rule matches; true if it did. */
    private boolean parked(SimNetwork.Packet packet) {
        for (Predicate<SimNetwork.Packet> rule : holdRules) {
            if (rule.test(packet)) {
                held.add(packet);
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the packet goes on to its member: not if a hold rule parks it, nor if the first
     * interceptor matching it (which fires once) says drop.
     */
    boolean admits(SimNetwork.Packet packet, Simulation simulation, SimTrace events) {
        if (parked(packet)) {
            return false;
        }
        Function<Simulation, Simulation.Verdict> action = takeInterceptor(packet);
        if (action == null) {
            return true;
        }
        events.log("intercepted " + packet.from() + " -> " + packet.to() + " " + MessageText.describe(packet.message()));
        return action.apply(simulation) != Simulation.Verdict.DROP;
    }

    /** The first interceptor matching the packet, removed (it fires once), or null. */
    private Function<Simulation, Simulation.Verdict> takeInterceptor(SimNetwork.Packet packet) {
        for (int i = 0; i < interceptors.size(); i++) {
            if (interceptors.get(i).match().test(packet)) {
                return interceptors.remove(i).action();
            }
        }
        return null;
    }

    /** Stops holding and returns the parked packets in arrival order. */
    List<SimNetwork.Packet> release() {
        holdRules.clear();
        List<SimNetwork.Packet> parked = new ArrayList<>(held);
        held.clear();
        return parked;
    }

    List<SimNetwork.Packet> held() {
        return List.copyOf(held);
    }

    /** Counts a message that arrived (after holds and interceptors). */
    void countDelivered(ZabMessage message) {
        deliveredByType.merge(message.getClass().getSimpleName(), 1, Integer::sum);
    }

    int deliveredCount(Class<? extends ZabMessage> type) {
        return deliveredByType.getOrDefault(type.getSimpleName(), 0);
    }
}
