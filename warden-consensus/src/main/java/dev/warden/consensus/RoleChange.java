package dev.warden.consensus;

/**
 * The member's role, leader and epoch changed. {@code serving} is true once the member may
 * answer clients: a leader after a quorum acknowledged NEWLEADER, a follower or observer after
 * UPTODATE. When serving stops the driver must drop client connections it cannot serve.
 */
public record RoleChange(Role role, long leaderId, long epoch, boolean serving) {
}
