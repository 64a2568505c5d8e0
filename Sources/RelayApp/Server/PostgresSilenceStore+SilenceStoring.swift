public import RelayHTTP
import RelayStore

// The store serves the API's and the console's silences port.
extension PostgresSilenceStore: SilenceStoring {}
