package dev.warden.consensus;

/** What a member is doing now. Only a FOLLOWING, LEADING or OBSERVING member that is serving may answer clients. */
public enum Role {
    LOOKING, FOLLOWING, LEADING, OBSERVING
}
