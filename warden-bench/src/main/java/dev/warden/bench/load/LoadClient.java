package dev.warden.bench.load;

import java.util.List;

/**
 * The few asynchronous operations the workloads need, over either the Apache ZooKeeper client or
 * the Warden client. Results arrive as ZooKeeper error codes ({@code 0} = OK) so both clients are
 * measured through the same thin layer. Callbacks of one client run one at a time, in order, and
 * may issue further requests.
 */
public interface LoadClient extends AutoCloseable {
    /** Completion of a request that carries no result the workloads look at. */
    @FunctionalInterface
    interface Done {
        void done(int rc);
    }

    /** Completion of a create: the actual path (sequential suffix included) when rc is 0. */
    @FunctionalInterface
    interface Created {
        void created(int rc, String actualPath);
    }

    /** Completion of getChildren: the child names when rc is 0. */
    @FunctionalInterface
    interface Children {
        void children(int rc, List<String> names);
    }

    /** Completion of a versioned setData: the node's new version when rc is 0. */
    @FunctionalInterface
    interface Versioned {
        void versioned(int rc, int newVersion);
    }

    void setData(String path, byte[] data, Done done);

    /** setData only if the node's version is {@code expectedVersion} (-1: any), as a compare-and-set. */
    void setData(String path, byte[] data, int expectedVersion, Versioned done);

    void getData(String path, Done done);

    void exists(String path, Done done);

    /** Creates a persistent node, or an ephemeral sequential one when {@code ephemeralSequential}. */
    void create(String path, byte[] data, boolean ephemeralSequential, Created done);

    /** Deletes whatever version is there. */
    void delete(String path, Done done);

    void getChildren(String path, Children done);

    /** exists with a one-shot watch; {@code onChange} runs once when the node changes or goes. */
    void existsWatch(String path, Runnable onChange, Done done);

    /** getData with a one-shot watch; {@code onChange} runs once when the node changes or goes. */
    void getDataWatch(String path, Runnable onChange, Done done);

    /** Closes the session and waits for the server to confirm (or for the close timeout). */
    @Override
    void close();
}
