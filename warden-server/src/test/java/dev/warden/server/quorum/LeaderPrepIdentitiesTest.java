package dev.warden.server.quorum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.warden.protocol.Acl;
import dev.warden.protocol.ErrorCode;
import dev.warden.protocol.Id;
import dev.warden.protocol.OpCode;
import dev.warden.protocol.SetDataRequest;
import dev.warden.state.common.ManualClock;
import dev.warden.state.pipeline.PendingState;
import dev.warden.state.pipeline.Preparer;
import dev.warden.state.pipeline.StateMachine;
import dev.warden.state.session.SessionTracker;
import dev.warden.state.tree.DataTree;
import dev.warden.state.txn.Txn;
import dev.warden.state.txn.TxnBody;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The leader checks a forwarded write's ACLs against the identities its member sent, address identity included. */
class LeaderPrepIdentitiesTest {
    private static final long SESSION = 0x51;
    private static final String ADDRESS = "10.1.2.3";
    private static final Id ALICE = new Id("digest", "alice:hash");

    private final ManualClock clock = new ManualClock(1_000);
    private final StateMachine state = new StateMachine(new DataTree(), new SessionTracker(clock, 100, 1));
    private final PendingState pending = new PendingState(state.tree());
    private final Preparer preparer = new Preparer(pending, state.sessions(), clock, new SplittableRandom(1), true, 0);
    private final List<Long> proposed = new ArrayList<>();
    private final List<Integer> refusals = new ArrayList<>();
    private final LeaderPrep prep = new LeaderPrep(preparer, pending, state.sessions(), state.tree(),
            new LeaderPrep.Output() {
                @Override
                public void propose(long zxid, byte[] txn) {
                    proposed.add(zxid);
                }

                @Override
                public void refuse(long memberId, AppMessage.Failed failure) {
                    refusals.add(failure.errorCode());
                }

                @Override
                public void onDriverThread(Runnable body) {
                    body.run();
                }
            });

    @Test
    void onlyTheAddressIdentityIsRefusedWhereTheAclWantsADigest() {
        lead();
        prep.forwarded(setData("/alice", List.of(new Id("ip", ADDRESS))));
        assertEquals(List.of(ErrorCode.NO_AUTH.code()), refusals);
        assertEquals(List.of(), proposed);
    }

    @Test
    void aDigestBesideTheAddressIsGranted() {
        lead();
        prep.forwarded(setData("/alice", List.of(new Id("ip", ADDRESS), ALICE)));
        prep.forwarded(setData("/alice", List.of(ALICE, new Id("ip", ADDRESS))));
        assertEquals(List.of(), refusals);
        assertEquals(2, proposed.size());
    }

    @Test
    void theAddressIdentityAloneGrantsAnIpAcl() {
        lead();
        prep.forwarded(setData("/byAddress", List.of(new Id("ip", ADDRESS))));
        prep.forwarded(setData("/byAddress", List.of(new Id("ip", "10.9.9.9"))));
        assertEquals(List.of(ErrorCode.NO_AUTH.code()), refusals, "the second came from another address");
        assertEquals(1, proposed.size());
    }

    private void lead() {
        state.sessions().add(SESSION, 30_000, new byte[16]);
        state.apply(new Txn(SESSION, 1, 0x1_0000_0001L, clock.wallTimeMs(), new TxnBody.Create("/alice", new byte[0],
                List.of(new Acl(31, ALICE)), 0, 0)));
        state.apply(new Txn(SESSION, 2, 0x1_0000_0002L, clock.wallTimeMs(), new TxnBody.Create("/byAddress",
                new byte[0], List.of(new Acl(31, new Id("ip", ADDRESS))), 0, 1)));
        prep.lead(0x2_0000_0001L, 0x1_0000_0002L);
    }

    private static AppMessage.Forward setData(String path, List<Id> identities) {
        String address = identities.stream().filter(id -> id.scheme().equals("ip")).map(Id::id).findFirst()
                .orElseThrow();
        return new AppMessage.Forward(2, SESSION, 7, OpCode.SET_DATA, new SetDataRequest(path, new byte[] {1}, -1),
                address, identities, 30_000, new byte[0]);
    }
}
