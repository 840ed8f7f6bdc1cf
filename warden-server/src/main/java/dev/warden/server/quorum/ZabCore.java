package dev.warden.server.quorum;

import dev.warden.consensus.Configuration;
import dev.warden.consensus.Configurations;
import dev.warden.consensus.Ready;
import dev.warden.consensus.ReconfigCheck;
import dev.warden.consensus.Role;
import dev.warden.consensus.ZabMessage;
import dev.warden.consensus.ZabPeer;

/** The production {@link ConsensusCore}: the Zab state machine. */
public final class ZabCore implements ConsensusCore {
    private final ZabPeer peer;

    public ZabCore(ZabPeer peer) {
        this.peer = peer;
    }

    @Override
    public void tick(long nowMs) {
        peer.tick(nowMs);
    }

    @Override
    public void receive(long fromId, ZabMessage message) {
        peer.receive(fromId, message);
    }

    @Override
    public void announceLeadershipTo(long peerId) {
        peer.announceLeadershipTo(peerId);
    }

    @Override
    public void peerDisconnected(long peerId) {
        peer.peerDisconnected(peerId);
    }

    @Override
    public boolean propose(long zxid, byte[] payload) {
        return peer.propose(zxid, payload);
    }

    @Override
    public long nextZxid() {
        return peer.nextZxid();
    }

    @Override
    public boolean sendToLeader(byte[] payload) {
        return peer.sendToLeader(payload);
    }

    @Override
    public boolean sendTo(long peerId, byte[] payload) {
        return peer.sendTo(peerId, payload);
    }

    @Override
    public boolean sync(long token) {
        return peer.sync(token);
    }

    @Override
    public boolean leaderHeardQuorumWithin(long windowMs) {
        return peer.leaderHeardQuorumWithin(windowMs);
    }

    @Override
    public java.util.Map<Long, Long> followerProgress() {
        return peer.followerProgress();
    }

    @Override
    public long lastLoggedZxid() {
        return peer.lastLoggedZxid();
    }

    @Override
    public long learnerMasterId() {
        return peer.learnerMasterId();
    }

    @Override
    public boolean requestLearnerMaster(long memberId) {
        return peer.requestLearnerMaster(memberId);
    }

    @Override
    public int observersServed() {
        return peer.observersServed();
    }

    @Override
    public java.util.Set<Long> learnersLinked() {
        return peer.learnersLinked();
    }

    @Override
    public Role role() {
        return peer.role();
    }

    @Override
    public long leaderId() {
        return peer.leaderId();
    }

    @Override
    public boolean isServing() {
        return peer.isServing();
    }

    @Override
    public long committedZxid() {
        return peer.committedZxid();
    }

    @Override
    public void abandonHistory() {
        peer.abandonHistory();
    }

    @Override
    public boolean isResyncRequired() {
        return peer.isResyncRequired();
    }

    @Override
    public ReconfigCheck checkReconfig(Configuration proposed) {
        return peer.checkReconfig(proposed);
    }

    @Override
    public Configurations configurations() {
        return peer.configurations();
    }

    @Override
    public long configurationChanges() {
        return peer.configurationChanges();
    }

    @Override
    public boolean hasReady() {
        return peer.hasReady();
    }

    @Override
    public Ready ready() {
        return peer.ready();
    }

    @Override
    public void advance(Ready ready) {
        peer.advance(ready);
    }
}
