package serialization.now;

/**
 * Kryo 5 without registration (setRegistrationRequired(false)): each message names its classes (the root's
 * too, through writeObject's class), as a program that registers nothing gets.
 */
public class KryoUnregistered extends Kryo {
    public KryoUnregistered() {
        super(false);
    }
}
