package dev.warden.sim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The simulated clients: each has one session on one member at a time and at most one operation
 * in flight. They take the outcomes members report (applied, refused, sync done) and hand
 * completed operations to the checkers.
 */
final class SimClients {
    private final Map<Long, SimClient> clients = new LinkedHashMap<>();
    private final Map<Long, SimServer> members;
    private final Checkers checkers;
    /** The simulation's own stream: client activity draws from it between the other draws of a step. */
    private final SplittableRandom random;

    SimClients(Map<Long, SimServer> members, Checkers checkers, SplittableRandom random) {
        this.members = members;
        this.checkers = checkers;
        this.random = random;
    }

    void add(SimClient client) {
        clients.put(client.id(), client);
    }

    SimClient get(long id) {
        return clients.get(id);
    }

    List<SimClient> all() {
        return List.copyOf(clients.values());
    }

    /** Submits a write from a client through its member now; false if the member would not take it. */
    boolean write(long clientId, SimClient.Kind kind, long nowMs) {
        SimClient client = clients.get(clientId);
        return client.write(members.get(client.memberId()), kind, nowMs);
    }

    SimClient.Op read(long clientId, long nowMs) {
        SimClient client = clients.get(clientId);
        return client.read(members.get(client.memberId()), nowMs, checkers);
    }

    void checkTimeouts(long nowMs) {
        List<Long> ids = List.copyOf(members.keySet());
        for (SimClient client : clients.values()) {
            client.checkTimeout(nowMs, ids);
        }
    }

    /** Random client activity for one step. */
    void activity(double opProbability, long nowMs) {
        List<Long> ids = List.copyOf(members.keySet());
        for (SimClient client : clients.values()) {
            if (client.busy() || random.nextDouble() >= opProbability) {
                continue;
            }
            int pick = random.nextInt(20);
            SimServer member = members.get(client.memberId());
            if (pick < 6) {
                if (client.read(member, nowMs, checkers) == null) {
                    client.failOver(ids);
                }
            } else if (pick < 8) {
                if (!client.syncRead(member, nowMs)) {
                    client.failOver(ids);
                }
            } else if (!client.write(member, writeKind(pick), nowMs)) {
                client.failOver(ids);
            }
        }
    }

    private static SimClient.Kind writeKind(int pick) {
        if (pick < 16) {
            return SimClient.Kind.CAS;
        }
        if (pick < 18) {
            return SimClient.Kind.CREATE;
        }
        return pick == 18 ? SimClient.Kind.EPHEMERAL : SimClient.Kind.CLOSE;
    }

    void applied(SimServer member, TreeMachine.Applied applied, long nowMs) {
        SimClient client = clientOfSession(applied.txn().sessionId());
        if (client != null && client.memberId() == member.id()) {
            SimClient.Op op = client.onApplied(member, applied, nowMs);
            if (op != null) {
                checkers.onCompletedOp(op);
            }
        }
    }

    void syncDone(SimServer member, long token, long nowMs) {
        SimClient client = clients.get(token >>> 32);
        if (client != null) {
            client.syncDone(member, token, nowMs, checkers);
        }
    }

    void refused(SimServer member, SimRequest.Refusal refusal, long nowMs) {
        SimClient client = clientOfSession(refusal.sessionId());
        if (client != null && client.memberId() == member.id()) {
            client.onRefused(member, refusal, nowMs);
        }
    }

    /** The client whose current session this is, or null (an old session of a client counts as no one's). */
    private SimClient clientOfSession(long sessionId) {
        SimClient client = clients.get(SimClient.clientIdOf(sessionId));
        return client != null && client.sessionId() == sessionId ? client : null;
    }
}
