import PurchaseSLICLI
PurchaseSLICommand.main()
