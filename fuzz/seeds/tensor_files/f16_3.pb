
BtJ&Kp•ºß)Ns˜