package serialization.now;

/** StAX with Woodstox 7. */
public class StaxWoodstox extends Stax {
    public StaxWoodstox() {
        super(new com.ctc.wstx.stax.WstxInputFactory(), new com.ctc.wstx.stax.WstxOutputFactory());
    }
}
