package dev.warden.recipes.atomic;

/**
 * The outcome of an atomic operation.
 *
 * @param succeeded  whether the value was changed (false: the compare failed, or contention
 *                   outlasted the attempts)
 * @param preValue   the value the operation saw before it (the current one if it failed);
 *                   null when the node did not exist
 * @param postValue  the value after it (the current one if it failed)
 * @param attempts   how many reads and writes it took (1 without contention)
 */
public record AtomicResult<T>(boolean succeeded, T preValue, T postValue, int attempts) {
}
