package dev.warden.protocol;

import java.util.List;

/** ACL permission bits and well-known ids and ACL lists. */
public final class Perms {
    public static final int READ = 1;
    public static final int WRITE = 2;
    public static final int CREATE = 4;
    public static final int DELETE = 8;
    public static final int ADMIN = 16;
    public static final int ALL = 31;

    public static final Id ANYONE = new Id("world", "anyone");
    public static final Id AUTH_IDS = new Id("auth", "");
    public static final List<Acl> OPEN_ACL_UNSAFE = List.of(new Acl(ALL, ANYONE));
    public static final List<Acl> CREATOR_ALL_ACL = List.of(new Acl(ALL, AUTH_IDS));
    public static final List<Acl> READ_ACL_UNSAFE = List.of(new Acl(READ, ANYONE));

    private Perms() {
    }
}
